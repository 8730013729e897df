// Must NOT compile: each line marked `error TSxxxx` is a mistake tsc has to catch in a seed (see wrong-override.ts).
import { setupMockServer } from 'agent-registry-kit/node';

const { api } = setupMockServer();
void api.seedAgent({ name: 'Right', statistics: { holders: 0 } });
// error TS2353: a misspelt field
void api.seedAgent({ nmae: 'typo' });
// error TS2561: a misspelt nested figure
void api.seedAgent({ statistics: { holderz: 0 } });
// error TS2322: a status outside the enum
void api.seedAgent({ status: 'sleeping' });
// error TS2322: a task status outside the enum
void api.seedTask({ agentId: 'a', status: 'done' });
