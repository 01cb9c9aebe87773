import { describe, expect, test } from 'bun:test';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ApiError } from './api';
import { Superseded } from './latest-call';
import { SubmitController } from './submit-controller';

/** The host as a controller sees it, without a DOM: it records its controllers and counts update requests. */
function fakeHost() {
  const host = {
    controllers: [] as ReactiveController[],
    updates: 0,
    addController(controller: ReactiveController) {
      host.controllers.push(controller);
    },
    removeController(controller: ReactiveController) {
      host.controllers = host.controllers.filter((candidate) => candidate !== controller);
    },
    requestUpdate() {
      host.updates += 1;
    },
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost & Record<string, unknown>;
  return host;
}

/** An action that ends only when told to, so the state in between can be read. */
function heldAction() {
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { action: () => promise, ...settle };
}

describe('SubmitController (issue 25, item 9)', () => {
  test('registers with its host', () => {
    const host = fakeHost();
    const submit = new SubmitController(host);
    expect(host.controllers).toEqual([submit]);
  });

  test('busy while the action runs, with the last problem cleared; not busy after; each change asks for an update', async () => {
    const host = fakeHost();
    const submit = new SubmitController(host);
    submit.problem = 'from before';
    const updatesBefore = host.updates;
    const held = heldAction();
    const running = submit.run(held.action);
    expect(submit.busy).toBe(true);
    expect(submit.problem).toBeNull();
    expect(host.updates).toBe(updatesBefore + 1);
    held.resolve();
    await running;
    expect(submit.busy).toBe(false);
    expect(submit.problem).toBeNull();
    expect(host.updates).toBe(updatesBefore + 2);
  });

  test("a refusal leaves the API's message as the problem, ends busy, and does not reject", async () => {
    const host = fakeHost();
    const submit = new SubmitController(host);
    await submit.run(async () => {
      throw new ApiError(400, 'domain: "localhost" is not a public domain', 'INVALID_REQUEST', null);
    });
    expect(submit.problem).toBe('domain: "localhost" is not a public domain');
    expect(submit.busy).toBe(false);
  });

  test('an error that is not the API says its own message', async () => {
    const submit = new SubmitController(fakeHost());
    await submit.run(async () => {
      throw new Error('The test delivery failed: HTTP 500');
    });
    expect(submit.problem).toBe('The test delivery failed: HTTP 500');
  });

  test('a superseded call shows nothing', async () => {
    const submit = new SubmitController(fakeHost());
    submit.problem = 'from before';
    await submit.run(async () => {
      throw new Superseded();
    });
    expect(submit.problem).toBeFalsy();
    expect(submit.busy).toBe(false);
  });

  test('the next run clears the problem of the last one', async () => {
    const submit = new SubmitController(fakeHost());
    await submit.run(async () => {
      throw new Error('first try failed');
    });
    expect(submit.problem).toBe('first try failed');
    await submit.run(async () => {});
    expect(submit.problem).toBeNull();
  });

  test('onError runs after the problem is set and before busy ends, and busy waits for it', async () => {
    const seen: Array<{ problem: string | null; busy: boolean; error: unknown }> = [];
    const focus = heldAction();
    const failure = new Error('refused');
    const submit: SubmitController = new SubmitController(fakeHost(), {
      onError: async (error) => {
        seen.push({ problem: submit.problem, busy: submit.busy, error });
        await focus.action();
      },
    });
    const running = submit.run(async () => {
      throw failure;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([{ problem: 'refused', busy: true, error: failure }]);
    expect(submit.busy).toBe(true);
    focus.resolve();
    await running;
    expect(submit.busy).toBe(false);
  });

  test("a run's own onError replaces the controller's; neither runs on success", async () => {
    const calls: string[] = [];
    const submit = new SubmitController(fakeHost(), { onError: () => void calls.push('controller') });
    await submit.run(async () => {});
    await submit.run(async () => {
      throw new Error('no');
    });
    await submit.run(
      async () => {
        throw new Error('no');
      },
      { onError: () => void calls.push('run') },
    );
    expect(calls).toEqual(['controller', 'run']);
  });

  test('a screen may word a refusal itself', async () => {
    const submit = new SubmitController(fakeHost(), {
      message: (error) => (error instanceof ApiError && error.status === 401 ? 'The email or the password is wrong.' : 'other'),
    });
    await submit.run(async () => {
      throw new ApiError(401, 'Invalid email or password', null, null);
    });
    expect(submit.problem).toBe('The email or the password is wrong.');
  });

  test('busy ends even when onError itself fails, and that failure reaches the caller', async () => {
    const submit = new SubmitController(fakeHost(), {
      onError: () => {
        throw new Error('focus target gone');
      },
    });
    await expect(
      submit.run(async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('focus target gone');
    expect(submit.busy).toBe(false);
    expect(submit.problem).toBe('refused');
  });

  test('setting the problem asks the host for an update', () => {
    const host = fakeHost();
    const submit = new SubmitController(host);
    const before = host.updates;
    submit.problem = 'The two passwords differ.';
    expect(host.updates).toBe(before + 1);
    expect(submit.problem).toBe('The two passwords differ.');
  });
});
