module github.com/pulumi-subscription-billing/pulumi-subscription-billing/sdk-gen/go/billing

go 1.25

require (
	github.com/blang/semver v3.5.1+incompatible
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
