import { describe, expect, it } from "vitest";
import { expandBraces } from "../../../../src/core/bash/expand-braces.ts";

describe("expandBraces", () => {
  it.each([
    ["{a,b}", ["a", "b"]],
    ["{a,}", ["a", ""]],
    ["x{a,b}y", ["xay", "xby"]],
    ["{a,{b,c}}", ["a", "b", "c"]],
    ["{a,b}{1,2}", ["a1", "a2", "b1", "b2"]],
    ["{1..3}", ["1", "2", "3"]],
    ["{-1..1}", ["-1", "0", "1"]],
    ["{08..10}", ["08", "09", "10"]],
    ["{1..10..3}", ["1", "4", "7", "10"]],
    ["{1..3..0}", ["1", "2", "3"]],
    ["{c..a}", ["c", "b", "a"]],
    ["{a}", ["{a}"]],
    ["{}", ["{}"]],
    ["{a,b", ["{a,b"]],
    ["{a..3}", null],
    ["{1..65}", null],
    ["{$x,y}", null],
    ["{'a',b}", null],
    [`${"{a,".repeat(9)}b${"}".repeat(9)}`, null],
    [`${"{a,b}".repeat(7)}`, null],
  ])("%s -> %j", (text, expected) => {
    expect(expandBraces(text)).toEqual(expected);
  });
});
