/**
 * Loads @vladmandic/human (node-wasm build) on the tfjs wasm backend, entirely from files inside
 * node_modules: no network at run time (issue 10; docs/engine-notes.md "Models ship with the packages"). Human's package `exports`
 * is malformed, so the build is required by absolute path; tfjs has no `file://` loader without
 * tfjs-node (which cannot install offline), so one is registered here.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Folder of a package, found through its package.json (works with hoisted workspaces). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

export interface HumanModule {
  Human: new (config: Record<string, unknown>) => HumanInstance;
}
export interface HumanInstance {
  load(): Promise<void>;
  warmup(): Promise<unknown>;
  detect(input: unknown, config?: Record<string, unknown>): Promise<{ face: HumanFace[] }>;
  tf: {
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
    engine(): { startScope(): void; endScope(): void };
  };
  init(): Promise<void>;
}
export interface HumanFace {
  score: number;
  boxScore: number;
  box: [number, number, number, number];
  age?: number;
  real?: number;
  live?: number;
  embedding?: number[];
  /** The face mesh: 468 points [x, y, z], x and y in pixels of the input. */
  mesh?: number[][];
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
}

let registered = false;

// biome-ignore lint/suspicious/noExplicitAny: tfjs is loaded from its node-wasm build by path, without types.
async function registerFileLoader(tf: any): Promise<void> {
  if (registered) return;
  registered = true;
  tf.io.registerLoadRouter((url: string | string[]) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const path = url.slice('file://'.length);
    return {
      load: async () => {
        const modelJson = JSON.parse(await readFile(path, 'utf8'));
        return tf.io.getModelArtifactsForJSON(modelJson, async (manifest: { paths: string[]; weights: unknown[] }[]) => {
          const specs = manifest.flatMap((group) => group.weights);
          const buffers = await Promise.all(manifest.flatMap((group) => group.paths.map((p) => readFile(join(dirname(path), p)))));
          const total = Buffer.concat(buffers);
          return [specs, total.buffer.slice(total.byteOffset, total.byteOffset + total.byteLength)];
        });
      },
    };
  });
}

/**
 * Evaluation only (`bun run accuracy --pairs --descriptor faceres-deep`): another descriptor model
 * in faceres's place, as an absolute path to its model JSON. The engine never sets it.
 */
export interface HumanOptions {
  descriptionModel?: string;
}

/** The models the engine uses; everything else in Human is switched off. */
export function humanConfig(options: HumanOptions = {}): Record<string, unknown> {
  const humanDir = packageDir('@vladmandic/human');
  // Results must never be reused between requests (docs/engine-notes.md "One model instance, fresh results, small images").
  const fresh = { skipFrames: 0, skipTime: 0 };
  return {
    backend: 'wasm',
    wasmPath: `${join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`,
    modelBasePath: `file://${join(humanDir, 'models')}/`,
    debug: !!process.env.HUMAN_DEBUG,
    async: true,
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { enabled: true, rotation: false, maxDetected: 5, minConfidence: 0.5, return: false, ...fresh },
      mesh: { enabled: true, ...fresh },
      attention: { enabled: false },
      iris: { enabled: false },
      emotion: { enabled: false },
      // faceres is switched on per call (face-analysis.ts) and no check asks for it since 2026.12.11:
      // face match and the liveness check compare face-embedding.ts (decisions 0090, 0098). It stays
      // loaded for `bun run accuracy --pairs --descriptor faceres`. Its age output is not used: it
      // clusters at 9, 16, 22 and 29 years on UTKFace (docs/verification.md).
      description: { enabled: true, ...fresh, ...(options.descriptionModel ? { modelPath: `file://${options.descriptionModel}` } : {}) },
      antispoof: { enabled: true, ...fresh },
      liveness: { enabled: true, ...fresh },
    },
  };
}

export async function loadHuman(options: HumanOptions = {}): Promise<HumanInstance> {
  const humanDir = packageDir('@vladmandic/human');
  const tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-wasm');
  await registerFileLoader(tf);
  const module = require(join(humanDir, 'dist', 'human.node-wasm.js')) as HumanModule;
  const human = new module.Human(humanConfig(options));
  await human.init();
  await human.load();
  return human;
}
