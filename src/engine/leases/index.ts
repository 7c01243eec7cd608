export { FileLeases, LeaseTimeout, type Lease, type LeaseCandidate, type WaitOptions } from './file-leases.js';
export { parseDuration, leaseDevices, isLeaseRequest, type LeaseRequestOptions } from './lease-devices.js';
