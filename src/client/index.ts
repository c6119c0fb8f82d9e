// lookup-client.js: the dependency-free ESM client every tree carries at its root.
export { createLookupClient } from './client.js';
export type { Answer, LookupClient, LookupClientOptions } from './client.js';
export { fold } from './fold.js';
export {
  cascadeAjax, countyCascade, countyResults, divisionValue, flattenDivisions, listUrl, optionForId, parseDivisionValue,
  preselect, select2Ajax, templateResult, toSelect2Page,
} from './select2.js';
export type {
  CascadeSelects, CountyOption, JQuerySelect, LookupOption, Select2Ajax, Select2AjaxOptions, Select2Page, Select2Query,
} from './select2.js';
