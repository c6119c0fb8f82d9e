// lookup-client.js: the dependency-free ESM client every tree carries at its root.
export { createLookupClient, fileAnswer } from './client.js';
export { LookupError } from './errors.js';
export type { LookupErrorCode } from './errors.js';
export type {
  FetchedFile,
  Lookup,
  LookupClient,
  LookupClientOptions,
  LookupOptions,
  TypedLookupClient,
} from './client.js';
export type {
  Answer,
  AnyBody,
  AnyItem,
  ApiList,
  CountedItem,
  Envelope,
  ErrorBody,
  Grid,
  Item,
  Manifest,
  ParentItem,
} from './types.js';
// What a project's reflist-lists.d.ts (`reflist types`) plugs into.
export type { BodyAt, ListBody, ListType, ListTypes } from './typed.js';
export { fold } from './fold.js';
// What of a label a Term matched, for a widget to mark (docs/lists.md, Highlighting).
export { highlight } from './highlight.js';
export type { Range } from './highlight.js';
// For an adapter of one's own (another edge runtime): the same definitions as the tree's own adapters.
export { answerHttp, HOST_FILES, routeOf, servicePaths, toResponse } from './host.js';
export type { HttpAnswer } from './host.js';
// The widget-neutral source the drop-down adapters are made of.
export { childOptions, groupOf, optionsForValues, optionsPage, preselectValues, without } from './source.js';
export type { Client, GroupOption, LevelPage } from './source.js';
export { chooseAt, createCascade, isReady } from './cascade.js';
export type { Above, Cascade, CascadeLevel } from './cascade.js';
export {
  cascade,
  cascadeAjax,
  cascadeResults,
  childValue,
  flattenChildren,
  listUrl,
  optionForId,
  parseChildValue,
  preselect,
  SELECT2_KEYS,
  select2Ajax,
  templateResult,
  toSelect2,
  toSelect2Page,
} from '../widgets/select2.js';
export type {
  CascadeOption,
  JQuerySelect,
  LookupOption,
  Select2Ajax,
  Select2AjaxOptions,
  Select2Page,
  Select2Query,
} from '../widgets/select2.js';
