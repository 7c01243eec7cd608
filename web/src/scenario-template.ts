import { CURRENT_SCHEMA_VERSION } from '../../src/validate/vocabulary.js';

/**
 * The Validate tab's "New scenario": a small sign-in scenario that passes the validator as it
 * stands (no errors, no warnings; test/web/scenario-template.test.ts), showing the fields people
 * most often get wrong by hand: `$schema_version`, step descriptions, semantic targets, a secret
 * parameter instead of a password in the file, and an assertion tied to a step.
 */
export function newScenarioTemplate(platform: 'android' | 'ios' = 'android'): string {
  const scenario = {
    $schema_version: CURRENT_SCHEMA_VERSION,
    scenario_id: 'sign_in',
    name: 'Sign in',
    description: 'Signs in with an email and a password and sees the home screen',
    platform,
    app_package: 'com.example.app',
    metadata: { app_version: '1.0.0', environment: 'development' },
    parameters: {
      PASSWORD: { description: "the test account's password; give it at run time with --param PASSWORD=...", secret: true },
    },
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Start the app' },
      { id: 'type_email', action: 'type', description: 'Type the email address', target: 'the Email field', value: 'demo@example.com' },
      { id: 'type_password', action: 'type', description: 'Type the password', target: 'the Password field', value: '${PASSWORD}' },
      { id: 'tap_sign_in', action: 'tap', description: 'Sign in', target: 'the Sign in button' },
    ],
    assertions: [
      { id: 'home_shown', after_step: 'tap_sign_in', type: 'element_visible', description: 'The item list shows after signing in', element_description: 'Item 1' },
    ],
  };
  return `${JSON.stringify(scenario, null, 2)}\n`;
}
