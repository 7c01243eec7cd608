/**
 * Pointer ids of scrcpy's control protocol (control_msg.h, SC_POINTER_ID_*): the server tells the
 * fingers of one gesture apart by them. Here so that building a gesture does not load the scrcpy
 * library, which only a started control channel needs.
 */
export const GENERIC_FINGER = -2n;
/** control_msg.h's value (@yume-chan/scrcpy's ScrcpyPointerId.VirtualFinger is -4, which scrcpy never sends). */
export const VIRTUAL_FINGER = -3n;
