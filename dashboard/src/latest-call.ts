/**
 * Only the latest call's result is shown (issue 25, item 9; the semantics of `@lit/task`): starting
 * a call aborts the one before it, and a superseded call rejects with `Superseded` instead of
 * handing back a result that belongs to a tenant or an item no longer on screen.
 */

/** The call was overtaken by a newer one (another tenant, another item, a newer load): ignore it. */
export class Superseded extends Error {
  constructor() {
    super('superseded by a newer call');
    this.name = 'Superseded';
  }
}

export class LatestCall {
  private controller = new AbortController();

  /** Starts a new call, aborting the one before; its requests carry the returned signal. */
  start(): AbortSignal {
    this.controller.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** The signal of the call in progress. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }
}
