import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { declaredParameters, flowKey, flowParametersAsked, initialValue, keptValues, placeholder, valuesToSend, type FormParameter } from '../../web/src/run-parameters.js';

const SCENARIO = JSON.stringify({
  parameters: { BASE_URL: { default: 'https://staging.example' }, API_KEY: { secret: true, default: 'k-staging-123' }, PASSWORD: { secret: true, description: 'typed into Password' }, REGION: {}, 'bad name': {} },
});

test('declaredParameters: every parameter, defaulted ones too, with its default; names the bridge would refuse are left to its validation', () => {
  assert.equal(declaredParameters(SCENARIO), [
    { name: 'BASE_URL', secret: false, default: 'https://staging.example' },
    { name: 'API_KEY', secret: true, default: 'k-staging-123' },
    { name: 'PASSWORD', secret: true, description: 'typed into Password' },
    { name: 'REGION', secret: false },
  ]);
  assert.equal(declaredParameters('{"steps": []}'), []);
  assert.equal(declaredParameters('{"parameters": [1]}'), []);
  assert.equal(declaredParameters('{ not json'), []);
});

test('a field starts with a plain default, never with a secret one; its hint says the default applies', () => {
  const [base, key, password] = declaredParameters(SCENARIO);
  assert.is(initialValue(base!), 'https://staging.example');
  assert.is(initialValue(key!), '');
  assert.is(initialValue(password!), '');
  assert.not.match(placeholder(key!), 'k-staging-123');
  assert.match(placeholder(base!), 'default: https://staging.example');
  assert.is(placeholder(password!), 'required');
});

test('valuesToSend: what the run needs and each changed default; an untouched or emptied default is left to the bridge', () => {
  const params = declaredParameters(SCENARIO);
  const entered = (o: Record<string, string>) => new Map(Object.entries(o));
  assert.equal(valuesToSend(params, entered({ BASE_URL: 'https://staging.example', API_KEY: '', PASSWORD: 'pw', REGION: 'eu' })), { values: { PASSWORD: 'pw', REGION: 'eu' }, missing: [] });
  assert.equal(valuesToSend(params, entered({ BASE_URL: 'https://prod.example', API_KEY: 'k-prod', PASSWORD: 'pw', REGION: 'eu' })).values, { BASE_URL: 'https://prod.example', API_KEY: 'k-prod', PASSWORD: 'pw', REGION: 'eu' });
  assert.equal(valuesToSend(params, entered({ BASE_URL: '', PASSWORD: '' })), { values: {}, missing: ['PASSWORD', 'REGION'] });
});

test('keptValues: a renamed parameter starts empty, a secret never moves into a plain field, an untouched default follows the new one', () => {
  const before: FormParameter[] = [{ name: 'PASSWORD', secret: true }, { name: 'EMAIL', secret: false }, { name: 'BASE_URL', secret: false, default: 'https://a' }];
  const entered = new Map([['PASSWORD', 'hunter22'], ['EMAIL', 'me@x.y'], ['BASE_URL', 'https://a']]);
  const renamed: FormParameter[] = [{ name: 'PASS', secret: true }, { name: 'EMAIL', secret: false }, { name: 'BASE_URL', secret: false, default: 'https://b' }];
  assert.equal([...keptValues(before, entered, renamed)], [['EMAIL', 'me@x.y']]);
  const unmasked: FormParameter[] = [{ name: 'PASSWORD', secret: false }];
  assert.equal([...keptValues(before, entered, unmasked)], []);
  const masked: FormParameter[] = [{ name: 'EMAIL', secret: true }];
  assert.equal([...keptValues(before, entered, masked)], []);
});

test('flowParametersAsked: the flows\' parameters of a refusal, one per name (secret if secret for any flow); nothing from other answers', () => {
  const refusal = {
    status: 'error',
    code: 'INVALID_PARAMETER',
    message: '…',
    missing_parameters: [
      { name: 'TOP', secret: false },
      { name: 'PASSWORD', secret: false, flow_step: 'login', flow: 'flows/login.json' },
      { name: 'PASSWORD', secret: true, flow_step: 'again', flow: 'flows/other.json' },
      { name: 'CODE', secret: false, description: 'the 2FA code', flow_step: 'login', flow: 'flows/login.json' },
    ],
  };
  assert.equal(flowParametersAsked(refusal), [
    { name: 'PASSWORD', secret: true, flow: { step: 'login', file: 'flows/login.json' } },
    { name: 'CODE', secret: false, description: 'the 2FA code', flow: { step: 'login', file: 'flows/login.json' } },
  ]);
  assert.is(flowParametersAsked({ status: 'error', code: 'INVALID_PARAMETER', message: 'x' }), undefined);
  assert.is(flowParametersAsked({ run_id: 'r', status: 'passed' }), undefined);
});

test('flowKey: changes with a flow step (nested ones too) or what it passes, not with the rest of the scenario', () => {
  const doc = (passed: Record<string, string>, name = 'A') => JSON.stringify({ name, steps: [{ id: 'a', action: 'tap' }, { id: 'p', action: 'tap', sub_steps: [{ id: 'login', flow: 'f.json', parameters: passed }] }] });
  assert.is(flowKey(doc({})), flowKey(doc({}, 'B')));
  assert.is.not(flowKey(doc({})), flowKey(doc({ EMAIL: 'x' })));
  assert.is.not(flowKey(doc({})), flowKey(JSON.stringify({ steps: [] })));
});

test.run();
