export { summarizeDocument } from "../core/parse/summarize-document.ts";
