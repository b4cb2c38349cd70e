// People, departments and quotas in the admin console: a chunk of their own, out of the first screen.
export { default as AdminPeoplePage } from './index';
