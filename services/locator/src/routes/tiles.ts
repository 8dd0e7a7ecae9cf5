import type { TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';

/** Placeholder until the routes are written (issue 4). */
export async function tileRoutes(_app: TypedFastify, _ctx: LocatorContext): Promise<void> {}
