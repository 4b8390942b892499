export { analyzeBash } from "../core/bash/analyze-bash.ts";
