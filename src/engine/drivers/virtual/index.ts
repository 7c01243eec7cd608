export { VirtualDriver, type VirtualDriverOptions, type ScreenOverride } from './virtual-driver.js';
export { VirtualDevice } from './virtual-device.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { ANDROID_PROFILE, IOS_PROFILE, IPAD_PROFILE, DEMO_PACKAGE, type DeviceProfile, type Platform, type VirtualModel } from './profile.js';
export { DEMO_CREDENTIALS, DEMO_ITEM_COUNT, DEMO_LOADING_MS, DEMO_SCREENS } from './apps/demo.js';
export { TOAST_MS, type PhoneState, type ToastRecord } from './state.js';
