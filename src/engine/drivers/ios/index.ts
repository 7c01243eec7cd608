export { IosDriver, type IosDriverOptions } from './ios-driver.js';
export { iosSetupFromFlags, type IosFlags } from './setup.js';
