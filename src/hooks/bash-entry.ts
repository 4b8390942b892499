export { analyzeBash } from "../core/bash/analyze-bash.ts";
export { readBashCall } from "../app/read-bash-call.ts";
