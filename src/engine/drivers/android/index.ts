export { AndroidDriver, type AndroidDriverOptions } from './android-driver.js';
export { AndroidDevice, type AndroidDeviceOptions } from './android-device.js';
export { androidSetupFromFlags, type AndroidSetup } from './setup.js';
export { AdbAddressError, resolveAdbAddress, type AdbAddress } from './adb-address.js';
