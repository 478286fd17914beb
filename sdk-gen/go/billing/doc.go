// Webhook settings, webhook endpoints, subscription migrations and webhook replay of a subscription-billing service.
package billing
