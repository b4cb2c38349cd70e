import { forbidden } from '../../errors.js';
import { caller } from '../../http/types.js';
import type { AuthContext } from '../auth/auth.service.js';

// The one gate for the company console (spec §6): every /h5/admin/* route calls it
// first, so an ordinary user gets 403 `admin.required` before any lookup runs.
// Department scope (an admin who manages only part of the tree) is checked by the
// feature that owns departments, on top of this.
export function companyAdmin(req: { auth: AuthContext | null }): AuthContext {
  const me = caller(req);
  if (me.role !== 'admin') throw forbidden('Only the company administrator can do this', 'admin.required');
  return me;
}
