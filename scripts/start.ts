// `npm start`: the fake backend. Placeholder until mocks/ lands.
import { cliError } from './cli-error.ts';
cliError('the fake backend is not built yet (see issue 3)', 1);
