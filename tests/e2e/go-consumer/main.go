// Command go-consumer runs a Go program that uses the generated Go SDK (sdk-gen/go/billing)
// through the Go Automation API with an inline program, so no Go language host is needed: the
// CLI talks to this process, and this process to the billing provider plugin the CLI starts.
//
// It creates a WebhookSettings and a WebhookEndpoint on the site named by the environment, runs
// `up`, `up` again (which must change nothing), `refresh` (nothing either) and `destroy`, and
// prints one JSON summary on stdout (progress goes to stderr). tests/e2e/go-consumer.test.ts
// runs it against the simulator and asserts on that summary.
//
// Environment:
//
//	BILLING_GO_CONSUMER_BASE_URL  the site's base URL (the simulator's)   -> config billing:baseUrl
//	BILLING_GO_CONSUMER_API_KEY   its API key                             -> config billing:apiKey (secret)
//	BILLING_GO_CONSUMER_STACK     stack name (default "go-consumer")
//	BILLING_GO_CONSUMER_HOOK_URL  the endpoint's url (default https://hooks.example.com/billing/go)
//
// plus what the CLI needs: pulumi on PATH, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE,
// PULUMI_HOME (where `pulumi plugin install resource billing …` put the plugin), or the plugin
// `pulumi-resource-billing` on PATH.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/pulumi-subscription-billing/pulumi-subscription-billing/sdk-gen/go/billing"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Events the endpoint subscribes to, as declared (the provider records them sorted).
var events = []string{"subscription_state_change", "payment_failure"}

func program(hookURL string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		settings, err := billing.NewWebhookSettings(ctx, "settings", &billing.WebhookSettingsArgs{
			WebhooksEnabled: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		endpoint, err := billing.NewWebhookEndpoint(ctx, "endpoint", &billing.WebhookEndpointArgs{
			Url:    pulumi.String(hookURL),
			Events: pulumi.ToStringArray(events),
		}, pulumi.DependsOn([]pulumi.Resource{settings}))
		if err != nil {
			return err
		}
		ctx.Export("webhooksEnabled", settings.WebhooksEnabled)
		ctx.Export("appliedAt", settings.AppliedAt)
		ctx.Export("endpointId", endpoint.EndpointId)
		ctx.Export("endpointUrl", endpoint.Url)
		ctx.Export("endpointEvents", endpoint.Events)
		return nil
	}
}

// Step is one operation's outcome: the engine's resource changes ("create", "same", …) and, for
// an up, the stack outputs.
type Step struct {
	Result  string         `json:"result"`
	Changes map[string]int `json:"changes"`
	Outputs map[string]any `json:"outputs,omitempty"`
}

type Summary struct {
	Stack   string `json:"stack"`
	Up      Step   `json:"up"`
	Again   Step   `json:"again"`
	Refresh Step   `json:"refresh"`
	Destroy Step   `json:"destroy"`
	// Secret outputs shown as their secretness only.
	SecretOutputs []string `json:"secretOutputs"`
}

func changes(s auto.UpdateSummary) map[string]int {
	if s.ResourceChanges == nil {
		return map[string]int{}
	}
	return *s.ResourceChanges
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "go-consumer:", err)
		os.Exit(1)
	}
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func run(ctx context.Context) error {
	baseURL, apiKey := os.Getenv("BILLING_GO_CONSUMER_BASE_URL"), os.Getenv("BILLING_GO_CONSUMER_API_KEY")
	if baseURL == "" || apiKey == "" {
		return fmt.Errorf("set BILLING_GO_CONSUMER_BASE_URL and BILLING_GO_CONSUMER_API_KEY")
	}
	stackName := env("BILLING_GO_CONSUMER_STACK", "go-consumer")
	hookURL := env("BILLING_GO_CONSUMER_HOOK_URL", "https://hooks.example.com/billing/go")

	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "billing-go-consumer", program(hookURL),
		auto.SecretsProvider("passphrase"))
	if err != nil {
		return fmt.Errorf("stack: %w", err)
	}
	// The provider's configuration: the same keys as the dynamic providers' stack config.
	if err := stack.SetConfig(ctx, "billing:baseUrl", auto.ConfigValue{Value: baseURL}); err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "billing:apiKey", auto.ConfigValue{Value: apiKey, Secret: true}); err != nil {
		return err
	}

	sum := Summary{Stack: stackName, SecretOutputs: []string{}}
	progress := os.Stderr

	up, err := stack.Up(ctx, optup.ProgressStreams(progress), optup.ErrorProgressStreams(progress))
	if err != nil {
		return fmt.Errorf("up: %w", err)
	}
	sum.Up = Step{Result: up.Summary.Result, Changes: changes(up.Summary), Outputs: map[string]any{}}
	for k, v := range up.Outputs {
		if v.Secret {
			sum.SecretOutputs = append(sum.SecretOutputs, k)
		}
		sum.Up.Outputs[k] = v.Value
	}
	sort.Strings(sum.SecretOutputs)

	again, err := stack.Up(ctx, optup.ExpectNoChanges(), optup.ProgressStreams(progress), optup.ErrorProgressStreams(progress))
	if err != nil {
		return fmt.Errorf("second up: %w", err)
	}
	sum.Again = Step{Result: again.Summary.Result, Changes: changes(again.Summary)}

	refresh, err := stack.Refresh(ctx, optrefresh.ExpectNoChanges(), optrefresh.ProgressStreams(progress),
		optrefresh.ErrorProgressStreams(progress))
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	sum.Refresh = Step{Result: refresh.Summary.Result, Changes: changes(refresh.Summary)}

	destroy, err := stack.Destroy(ctx, optdestroy.ProgressStreams(progress), optdestroy.ErrorProgressStreams(progress))
	if err != nil {
		return fmt.Errorf("destroy: %w", err)
	}
	sum.Destroy = Step{Result: destroy.Summary.Result, Changes: changes(destroy.Summary)}

	if err := stack.Workspace().RemoveStack(ctx, stackName); err != nil {
		return fmt.Errorf("stack rm: %w", err)
	}
	out, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Println(string(out))
	return nil
}
