/** A refused provisioning request: bad input, unknown tenant, a forbidden destination. The CLI prints it and exits 1. */
export class ProvisioningError extends Error {}
