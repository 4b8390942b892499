export { analyzeBash } from "../core/bash/analyze-bash.ts";
export { readBashCall } from "../app/hook/read-bash-call.ts";
