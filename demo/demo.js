// The demo uses only what lookup-client.js and the drop-down adapters export,
// the way a site would. It offers a select2 drop-down for every paged list of
// the tree's lookup.json, a cascade down every chain of nested lists, and the
// first paged list in react-select, Tom Select and Choices.js.
// Preselect from the address: ?author=1007&division=c:3&system=gbif (list names, the group parameter).
import { cascade, createLookupClient, preselect, select2Ajax, templateResult } from './lookup/lookup-client.js';

// Without select2 (offline, and jQuery and select2 not installed) the selects would be plain ones that never search: say so instead.
if (!window.jQuery?.fn?.select2) {
  const alert = Object.assign(document.createElement('p'), {
    className: 'failure',
    textContent: 'select2 could not be loaded, so the demo shows no drop-downs. It takes jQuery and select2 from vendor/: '
      + 'the installed packages (npm install --save-dev jquery@3 select2@4.1: select2 4.1 needs jQuery 3), else jsDelivr, which needs a connection.',
  });
  alert.setAttribute('role', 'alert');
  document.querySelector('#demo').replaceWith(alert);
  throw new Error(alert.textContent);
}
const $ = window.jQuery;
const client = createLookupClient(); // baseUrl: the folder lookup-client.js was loaded from
const common = { width: '100%', allowClear: true };
const params = new URLSearchParams(location.search);
const manifest = await client.manifest();
const { lists, group } = manifest.api;

/** A labelled select in a fieldset, named and identified after its list. */
function addSelect(fieldset, name, placeholder) {
  const label = $('<label>').attr('for', name).text(name[0].toUpperCase() + name.slice(1));
  const select = $('<select>').attr({ id: name, name, 'data-placeholder': placeholder });
  $(fieldset).append(label, select);
  return select;
}

// The group whose counts the lists show (System), read at every request, so switching it changes the next search.
const groupName = group?.toLowerCase();
const groupSelect = group
  ? addSelect('#lists', groupName, '').addClass('groups').append(new Option('none', ''))
  : undefined;
for (const g of manifest.systems) groupSelect?.append(new Option(g.text, g.id));
groupSelect?.val(manifest.systems.some((g) => g.id === params.get(groupName)) ? params.get(groupName) : '');
const chosenGroup = () => groupSelect?.val() || null;

// Lists under a parent are a cascade's levels below, not drop-downs of their own.
const paged = lists.filter((l) => l.shape === 'paged' && !l.parent);
for (const list of paged) {
  const hint = list.children ? `A ${list.name} or one of its ${list.children.list} items` : 'Type to search…';
  addSelect('#lists', list.name, hint).select2({ ...common, ajax: select2Ajax(client, list.name, { group: chosenGroup }), templateResult });
}

// A cascade from each root whole or grid list down its first nested list, level by level.
for (const root of lists.filter((l) => !l.parent && l.shape !== 'paged')) {
  const chain = [root];
  for (let next = root; (next = lists.find((l) => l.parent === next.name)); ) chain.push(next);
  const selects = chain.map((l, i) => addSelect('#cascades', l.name, i === 0 ? l.name : `${l.name} (choose a ${chain[i - 1].name} first)`));
  cascade(client, selects, chain.map((l) => l.name), { select2: common });
  const last = chain.at(-1);
  const info = $('<output>').attr({ id: `${last.name}-info`, for: last.name, 'data-empty': `The chosen ${last.name}'s keys show here.` });
  $('#cascades').append(info);
  selects.at(-1).on('change', () => {
    const item = selects.at(-1).select2('data')[0];
    const keys = last.keys.filter(([, v]) => v !== 'label').map(([k]) => `${k} ${item?.[k]}`);
    info.text(item?.itemId === undefined ? '' : `${item.text}: ${keys.join(' · ')}`);
  });
}
if (!$('#cascades select').length) $('#cascades').remove();

const form = document.getElementById('demo');
const showFormData = () => {
  const data = [...new FormData(form)].filter(([, value]) => value !== '');
  $('#form-data').text(data.map(([name, value]) => `${name}=${value}`).join('  '));
};
$(form).on('change', showFormData);

// The first paged list in each of the other widgets, with the same group; a widget that could not be loaded says so.
const first = paged[0];
const widgetSlot = (widget, name) => {
  const slot = $('<div>').appendTo('#widgets');
  slot.append($('<label>').attr('for', `${widget}-${first.name}`).text(name));
  return slot;
};
const missing = (slot, name, packages) =>
  slot.append($('<p class="missing">').text(`${name} could not be loaded (npm install --save-dev ${packages}).`));
if (first) {
  const react = await import('./vendor/react-select.js').catch(() => undefined);
  const { highlighted, loadPage } = await import('./widgets/react-select.js');
  const reactSlot = widgetSlot('react-select', 'react-select');
  if (react) {
    const root = $('<div>').appendTo(reactSlot)[0];
    react.createRoot(root).render(react.createElement(react.AsyncPaginate, {
      inputId: `react-select-${first.name}`, name: `react-select-${first.name}`, isClearable: true,
      loadOptions: loadPage(client, first.name, { group: chosenGroup }), additional: { page: 1 }, debounceTimeout: 250,
      formatOptionLabel: highlighted(react.createElement), // what the term matched in <mark>, and the count
      onChange: () => setTimeout(showFormData),
    }));
  } else missing(reactSlot, 'react-select', 'esbuild react react-dom react-select react-select-async-paginate');

  const { tomSelectSettings } = await import('./widgets/tom-select.js');
  const tomSlot = widgetSlot('tom-select', 'Tom Select');
  if (window.TomSelect) {
    const select = $('<select>').attr({ id: `tom-select-${first.name}`, name: `tom-select-${first.name}`, placeholder: 'Type to search…' }).appendTo(tomSlot);
    new window.TomSelect(select[0], tomSelectSettings(client, first.name, { group: chosenGroup }));
  } else missing(tomSlot, 'Tom Select', 'tom-select@2');

  const { createChoices } = await import('./widgets/choices.js');
  const choicesSlot = widgetSlot('choices', 'Choices.js');
  if (window.Choices) {
    const select = $('<select>').attr({ id: `choices-${first.name}`, name: `choices-${first.name}` }).appendTo(choicesSlot);
    createChoices(window.Choices, select[0], client, first.name, { group: chosenGroup, config: { itemSelectText: '' } });
  } else missing(choicesSlot, 'Choices.js', 'choices.js@11');
} else $('#widgets').remove();

const totals = Object.entries(manifest.lists).map(([name, info]) => `${name} ${info.total}`);
$('#tree-info').text(`Tree at ${client.baseUrl} · ${totals.join(' · ')} · ${manifest.pageSize} a page`);

for (const list of paged) {
  const id = params.get(list.name);
  // A malformed id is a 400 from the service: leave the select empty rather than stop the page.
  if (id) await preselect($(`#${list.name}`), client, list.name, id, { group: chosenGroup() }).catch((e) => console.warn(e.message));
}
showFormData();
document.body.dataset.ready = 'true'; // for the browser tests: wiring and preselection are done
