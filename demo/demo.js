// The demo uses only what lookup-client.js exports, the way a site would.
// Preselect from the address: ?author=1007&division=c:3&descriptor=1&system=gbif
import { countyCascade, createLookupClient, preselect, select2Ajax, templateResult } from './lookup/lookup-client.js';

const $ = window.jQuery;
const client = createLookupClient(); // baseUrl: the folder lookup-client.js was loaded from
const LISTS = ['author', 'division', 'descriptor'];
const common = { width: '100%', allowClear: true };
const params = new URLSearchParams(location.search);

const manifest = await client.manifest();
for (const s of manifest.systems) $('#system').append(new Option(s.text, s.id));
$('#system').val(manifest.systems.some((s) => s.id === params.get('system')) ? params.get('system') : '');
// Read at every request, so switching System changes the counts the next search shows.
const system = () => $('#system').val();

for (const list of LISTS) {
  $(`#${list}`).select2({ ...common, ajax: select2Ajax(client, list, { system }), templateResult });
}
countyCascade(client, { country: $('#country'), state: $('#state'), county: $('#county') }, { select2: common });

$('#county').on('change', () => {
  const county = $('#county').select2('data')[0];
  $('#county-info').text(
    county?.FIPS === undefined
      ? ''
      : `${county.text}: FIPS ${county.FIPS} · center ${county.latitudeCenter}, ${county.LongitudeCenter}`,
  );
});

const form = document.getElementById('demo');
const showFormData = () => {
  const data = [...new FormData(form)].filter(([, value]) => value !== '');
  $('#form-data').text(data.map(([name, value]) => `${name}=${value}`).join('  '));
};
$(form).on('change', showFormData);

const { author, division, descriptor } = manifest.lists;
$('#tree-info').text(
  `Tree at ${client.baseUrl} · ${author.total} authors, ${division.total} divisions, ` +
    `${descriptor.total} descriptors, ${manifest.lists.country.total} countries · ${manifest.pageSize} a page`,
);

for (const list of LISTS) {
  const id = params.get(list);
  // A malformed id is a 400 from the service: leave the select empty rather than stop the page.
  if (id) await preselect($(`#${list}`), client, list, id, { system: system() }).catch((e) => console.warn(e.message));
}
showFormData();
document.body.dataset.ready = 'true'; // for the browser tests: wiring and preselection are done
