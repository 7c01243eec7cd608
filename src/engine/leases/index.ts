export { FileLeases, LeaseTimeout, type Lease, type LeaseCandidate, type WaitOptions } from './file-leases.js';
export { parseDuration, leaseDevices, isLeaseRequest, LEASE_ASK_HOLDER, LEASE_WAIT_LONGER, type LeaseRequestOptions } from './lease-devices.js';
