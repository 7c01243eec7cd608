/**
 * Nothing reached the device's apps: the caller may use another input path without doing the
 * gesture twice. Its own module so that input code can catch it without loading the scrcpy library.
 */
export class ControlUnavailable extends Error {}
