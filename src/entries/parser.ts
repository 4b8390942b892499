export { summarizeDocument } from "../core/parse/summarize-document.ts";
export { parsePlaybook } from "../core/parse/parse-playbook.ts";
export { parseState } from "../core/parse/parse-state.ts";
export { validatePlaybook } from "../core/validate/validate-playbook.ts";
export { setStateField } from "../core/edit/state-writers.ts";
export { summarizeWithConfig } from "../app/workspace/summarize-with-config.ts";
