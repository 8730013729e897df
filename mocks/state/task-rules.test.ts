import { describe, expect, it } from 'vitest';
import { planTask, type TaskShape } from './task-rules.ts';

const base: TaskShape = { model: 'gpt-4', priority: 'normal', taskLength: 0, parametersLength: 0 };

describe('planTask', () => {
  const cases: [
    string,
    {
      given: Partial<TaskShape>;
      want: { cost: number; queueMs: number; processingMs: number; estimatedCompletion: number };
    },
  ][] = [
    [
      'a minimal gpt-4 task at normal priority',
      { given: {}, want: { cost: 2, queueMs: 2000, processingMs: 4000, estimatedCompletion: 6 } },
    ],
    [
      'high priority costs 1.5× and waits less',
      { given: { priority: 'high' }, want: { cost: 3, queueMs: 500, processingMs: 4000, estimatedCompletion: 4.5 } },
    ],
    [
      'low priority costs 0.8× and waits more',
      { given: { priority: 'low' }, want: { cost: 1.6, queueMs: 5000, processingMs: 4000, estimatedCompletion: 9 } },
    ],
    [
      'a 1000-character task doubles cost and time',
      { given: { taskLength: 1000 }, want: { cost: 4, queueMs: 2000, processingMs: 8000, estimatedCompletion: 10 } },
    ],
    [
      '2000 characters of parameters count like 1000 of task',
      {
        given: { parametersLength: 2000 },
        want: { cost: 4, queueMs: 2000, processingMs: 8000, estimatedCompletion: 10 },
      },
    ],
    [
      'llama-2 is the cheapest model',
      { given: { model: 'llama-2' }, want: { cost: 0.25, queueMs: 2000, processingMs: 2000, estimatedCompletion: 4 } },
    ],
    [
      'the size factor is capped at 20',
      {
        given: { taskLength: 1_000_000 },
        want: { cost: 40, queueMs: 2000, processingMs: 80_000, estimatedCompletion: 82 },
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(planTask({ ...base, ...given })).toEqual(want);
  });

  it('never gives a negative or non-finite figure', () => {
    for (const model of ['gpt-4', 'gpt-3.5-turbo', 'claude-3', 'llama-2'] as const) {
      for (const priority of ['low', 'normal', 'high'] as const) {
        const plan = planTask({ model, priority, taskLength: 10_000, parametersLength: 1_048_576 });
        for (const value of Object.values(plan)) expect(Number.isFinite(value) && value >= 0).toBe(true);
      }
    }
  });
});
