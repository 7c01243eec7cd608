/** A valid passed result document of one launch step, as a bridge answers scenarios.run; tests spoil or rename it. */
export function passedResult(o: { runId: string; scenarioId: string; device: string; stepId: string; environment: string }): Record<string, any> {
  const now = new Date().toISOString();
  const step = { step_id: o.stepId, action: 'launch_app', status: 'passed', resolved_target: null, screenshot: null, error_code: null, error_message: null, retried: false, retry_count: 0, step_duration_ms: 1, condition_evaluated: null, sub_steps_executed: [] };
  return {
    run_id: o.runId,
    schema_version: '2.2',
    scenario_id: o.scenarioId,
    status: 'passed',
    metadata: { app_version: '1', environment: o.environment, platform: 'android', device_id: o.device, device_model: 'm', os_version: '14', api_level: 34, timestamp: now, tool_version: '0.1.0' },
    started_at: now,
    ended_at: now,
    duration_seconds: 0.1,
    total_assertions: 0,
    passed_assertions: 0,
    failed_assertions: 0,
    skipped_assertions: 0,
    captured_variables: {},
    steps_executed: [step],
    assertion_results: [],
    observations: [],
    summary: 'passed',
  };
}
