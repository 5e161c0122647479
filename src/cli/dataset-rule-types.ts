/**
 * Maps the detector names of public secret-scanning test data (gitleaks
 * `rule_id`, detect-secrets `plugin`) to the `findSecrets` types that detect
 * the same thing, for the eval command's rule-aware scoring.
 *
 * Those data sets label a row 0 when *that one rule* should not fire (a key
 * one character too long for its rule, a real key on the rule's allowlist);
 * another detector may rightly flag it. Rule-aware scoring counts such a row
 * as a false positive only when our detector of the mapped type fires.
 */
const ruleTypes: Array<[RegExp, readonly string[]]> = [
  [/^(?:aws_key|aws-access-token)$/, ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']],
  [/^aws-amazon-bedrock/, ['AWS_BEDROCK_API_KEY']],
  [/^github/, ['GITHUB_TOKEN']],
  [/^gitlab/, ['GITLAB_TOKEN']],
  [/^slack-webhook/, ['SLACK_WEBHOOK']],
  [/^slack/, ['SLACK_TOKEN', 'SLACK_WEBHOOK']],
  [/^stripe/, ['STRIPE_KEY']],
  [/^gcp-api-key$/, ['GOOGLE_API_KEY']],
  [/^gcp-service-account$/, ['GCP_SERVICE_ACCOUNT']],
  [/^azure-ad-client-secret$/, ['AZURE_AD_CLIENT_SECRET']],
  [/^azure_storage_key$/, ['AZURE_STORAGE_KEY']],
  [/^twilio/, ['TWILIO_API_KEY', 'TWILIO_ACCOUNT_SID']],
  [/^mailgun/, ['MAILGUN_API_KEY']],
  [/^databricks/, ['DATABRICKS_TOKEN']],
  [/^sendgrid/, ['SENDGRID_API_KEY']],
  [/^npm/, ['NPM_TOKEN']],
  [/^pypi/, ['PYPI_TOKEN']],
  [/^huggingface/, ['HUGGINGFACE_TOKEN']],
  [/^jwt/, ['JWT']],
  [/^private[-_]key$/, ['PRIVATE_KEY']],
  [/^openai/, ['OPENAI_API_KEY']],
  [/^anthropic-api-key$/, ['ANTHROPIC_API_KEY']],
  [/^anthropic-admin-api-key$/, ['ANTHROPIC_ADMIN_KEY']],
  [/^discord$/, ['DISCORD_TOKEN']],
  [/^telegram/, ['TELEGRAM_BOT_TOKEN']],
  [/^shopify/, ['SHOPIFY_TOKEN']],
  [/^square/, ['SQUARE_TOKEN']],
  [/^mailchimp/, ['MAILCHIMP_API_KEY']],
  [/^digitalocean/, ['DIGITALOCEAN_TOKEN']],
  [/^age-secret-key$/, ['AGE_SECRET_KEY']],
  [/^1password/, ['ONEPASSWORD_SECRET']],
  [/^adobe-client-secret$/, ['ADOBE_CLIENT_SECRET']],
  [/^alibaba-access-key-id$/, ['ALIBABA_ACCESS_KEY_ID']],
  [/^hashicorp-tf-api-token$/, ['HASHICORP_TF_TOKEN']],
  [/^vault/, ['VAULT_TOKEN']],
  [/^facebook/, ['FACEBOOK_ACCESS_TOKEN']],
  [/^flyio/, ['FLYIO_TOKEN']],
  [/^intra42/, ['INTRA42_CLIENT_SECRET']],
  [/^mapbox/, ['MAPBOX_TOKEN']],
  [/^sentry/, ['SENTRY_TOKEN']],
  [/^sourcegraph/, ['SOURCEGRAPH_TOKEN']],
  [/^infracost/, ['INFRACOST_TOKEN']],
  [/^sidekiq-secret$/, ['SIDEKIQ_SECRET']],
  [/^dynatrace/, ['DYNATRACE_TOKEN']],
  [/^yandex-access-token$/, ['YANDEX_TOKEN']],
  [/^easypost/, ['EASYPOST_TOKEN']],
  [/^artifactory/, ['ARTIFACTORY_TOKEN']],
  [/^postman/, ['POSTMAN_API_KEY']],
  [/^notion/, ['NOTION_TOKEN']],
  [/^airtable/, ['AIRTABLE_TOKEN']],
  [/^grafana-(?:cloud-api|service-account)-token$/, ['GRAFANA_TOKEN']],
  [/^basic_auth$/, ['BASIC_AUTH_URL', 'DATABASE_URL_PASSWORD']],
  [/^curl-auth-user$/, ['CURL_USER']],
  [/^curl-auth-header$/, ['AUTHORIZATION_HEADER']],
  // Generic rules: our generic detectors are the assignment and the entropy detector.
  [/^(?:keyword|generic-api-key)$/, ['GENERIC_SECRET', 'HIGH_ENTROPY_STRING']],
];

/** The `findSecrets` types a data-set rule name corresponds to, or undefined when none does. */
export function secretTypesForRule(rule: string | undefined): readonly string[] | undefined {
  if (rule === undefined) return undefined;
  return ruleTypes.find(([pattern]) => pattern.test(rule))?.[1];
}
