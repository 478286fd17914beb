import { PolicyPack } from "@pulumi/policy";
import { POLICY_PACK_NAME, policies } from "./index";

// Loading this module serves the pack to the engine (CrossGuard's PolicyPack starts its gRPC server), so only
// the launcher (policy/pack) loads it. CrossGuard reads the pack's version from ./package.json: the launcher
// runs it from the package's root, so the pack's version is the package's.
new PolicyPack(POLICY_PACK_NAME, {
  description:
    "Reviewed subscription migrations, webhooks that stay on and acknowledged pricing changes: the policies of pulumi-subscription-billing.",
  enforcementLevel: "mandatory",
  policies: [...policies],
});
