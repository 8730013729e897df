// The console page's entry: mounts the app into the page served at /__mock/ui/.
import { render } from 'preact';
import { App } from './app.tsx';

const root = document.getElementById('console');
if (root) {
  // The page's "Loading…" line goes: render appends to what the container holds.
  root.replaceChildren();
  render(<App />, root);
}
