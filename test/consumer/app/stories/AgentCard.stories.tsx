// AgentCard's stories, each on a fake of its own (.storybook/preview.tsx): an agent of the seed's catalogue, and the
// same card while a scenario makes getAgent answer 500.
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StoryFakeOptions } from 'agent-registry-kit/browser';
import { AgentCard } from '../src/AgentCard';

/** An agent of the default seed's catalogue (the consumer test reads its name from the same seed). */
const CATALOGUE_AGENT = 'agt_WCC01FaiMscDbRzp';

const meta = {
  component: AgentCard,
  render: (args, { loaded }) => <AgentCard {...args} token={String(loaded.token)} />,
  args: { baseUrl: '', agentId: CATALOGUE_AGENT, token: '' },
} satisfies Meta<typeof AgentCard>;
export default meta;
type Story = StoryObj<typeof meta>;

const fromCatalogue: StoryFakeOptions = {};
export const FromTheCatalogue: Story = { parameters: { agentRegistry: fromCatalogue } };

const getAgentFails: StoryFakeOptions = { scenarios: { operations: { getAgent: { errorStatus: 500 } } } };
export const WhenGetAgentFails: Story = { parameters: { agentRegistry: getAgentFails } };
