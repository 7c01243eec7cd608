/** The smallest scenario that touches the phone (launch the demo app, see its sign-in button), for lease and routing tests. */
export function launchScenario(scenarioId: string): Record<string, unknown> {
  return {
    $schema_version: '2.0',
    scenario_id: scenarioId,
    name: scenarioId.replace(/_/g, ' '),
    description: 'launches the demo app',
    platform: 'android',
    app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1.0.0', environment: 'development' },
    preconditions: { app_state: 'any' },
    steps: [{ id: 'launch', action: 'launch_app', description: 'launch' }],
    assertions: [{ id: 'a1', after_step: 'launch', type: 'element_exists', description: 'sign in', element_description: 'the Sign in button' }],
  };
}
