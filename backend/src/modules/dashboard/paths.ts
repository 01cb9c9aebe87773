/** Where the dashboard API and better-auth's endpoints live (contract "Shape"). */
export const DASHBOARD_API_PREFIX = '/dashboard/api';
export const AUTH_BASE_PATH = `${DASHBOARD_API_PREFIX}/auth`;
