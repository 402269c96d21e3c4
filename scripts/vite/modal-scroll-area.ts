// Mantine's Modal and Drawer import ScrollArea only to compare the `scrollAreaComponent` prop with
// ScrollArea.Autosize (and then mark the root `data-offset-scrollbars`). That import put ScrollArea and, through
// its one hook, all of @floating-ui/react (18 KiB brotli together) on every guest page, which shows the cookie
// notice in a Modal. Here Modal and Drawer see a ScrollArea whose Autosize nobody else holds: the
// comparison is false, as it always is in this app (no Modal or Drawer passes scrollAreaComponent; passing
// ScrollArea.Autosize would still scroll, only without that attribute). ScrollArea itself is untouched.
import type { Plugin } from 'vite';

const roots = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Modal[\\/]ModalRoot|Drawer[\\/]DrawerRoot)\.mjs$/;
const stubId = '\0cxvet-modal-scroll-area';

export function modalScrollArea(): Plugin {
  return {
    name: 'cxvet:modal-scroll-area',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '../ScrollArea/ScrollArea.mjs' && importer && roots.test(importer) ? stubId : null;
    },
    load(id) {
      return id === stubId
        ? 'export const ScrollArea = { Autosize: function ScrollAreaAutosizeNotLoaded() {} };\n'
        : null;
    },
  };
}
