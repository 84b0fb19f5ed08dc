#!/bin/sh
# The alert of a failed unit, with no mail server (deploy/systemd/climate-risk-alert@.service, docs/deploy.md §2.6):
# the unit's last 40 journal lines written back to the journal at priority err under the tag climate-risk-alert, and,
# when ALERT_WEBHOOK_URL is set, posted to it as {"text": …} (the body Slack, Mattermost and Teams incoming webhooks
# take). The webhook URL holds a secret: it is never printed. Exit 0 once the journal has the alert, even if the
# webhook fails (that failure is in the journal too).
set -u
unit="${1:?usage: alert.sh <failed unit>}"
text="climate-risk: $unit failed
$(journalctl -u "$unit" -n 40 --no-pager 2>&1)"
printf '%s\n' "$text" | logger -t climate-risk-alert -p user.err
if [ -n "${ALERT_WEBHOOK_URL:-}" ]; then
  failed=$(printf '%s' "$text" | node -e '
    const text = require("node:fs").readFileSync(0, "utf8");
    fetch(process.env.ALERT_WEBHOOK_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text }), signal: AbortSignal.timeout(10_000) })
      .then((r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); })
      .catch((e) => { console.error(`webhook: ${e.message}`); process.exit(1); });
  ' 2>&1)
  [ -z "$failed" ] || printf '%s\n' "$failed" | logger -t climate-risk-alert -p user.err
fi
exit 0
