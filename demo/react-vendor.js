// What the demo's react-select drop-down takes from React: `reflist dev`
// bundles this file from the installed packages (React ships no browser
// build), and `npm run preview` does the same.
export { createElement } from 'react';
export { createRoot } from 'react-dom/client';
export { AsyncPaginate } from 'react-select-async-paginate';
