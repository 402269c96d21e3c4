// Every `import dayjs from 'dayjs'` in the web build resolves here (scripts/vite/dayjs-es.ts), so dates are in
// Spanish wherever dayjs is used, and dayjs loads only with the screens that format dates, not on every page.
import dayjs from 'dayjs';
import 'dayjs/locale/es';

dayjs.locale('es');

export default dayjs;
