import * as pulumi from "@pulumi/pulumi";
import { CustomField, Offer, ReasonCode } from "pulumi-subscription-billing";

// A site's configuration beside its catalog: the reason codes customers pick from when they cancel, the custom
// fields of subscriptions and customers, and the offers a pricing page links to. Each is keyed in config by a name of
// your choosing (the resource's name), so a new code or a field's new name changes it in place rather than replacing
// it; an offer cannot change at the service, so a changed offer takes a new handle and replaces the old one:
//   pulumi config set --path 'siteConfig:reasonCodes.pricey.code' too_expensive
//   pulumi config set --path 'siteConfig:reasonCodes.pricey.description' 'It costs too much'
//   pulumi config set --path 'siteConfig:customFields.region.resourceType' subscriptions
//   pulumi config set --path 'siteConfig:customFields.region.name' Region
//   pulumi config set --path 'siteConfig:offers.launch.handle' launch-bundle
//   pulumi config set --path 'siteConfig:offers.launch.product' handle:pro
// A field that holds data is deleted (with its data) only once `deleteData: true` has been applied by an up.
const config = new pulumi.Config("siteConfig");

interface ReasonCodeConfig {
  code: string;
  description: string;
  position?: number;
}
interface CustomFieldConfig {
  resourceType: "subscriptions" | "customers";
  name: string;
  inputType?: "text" | "radio" | "dropdown";
  enum?: string[];
  scope?: { csv?: boolean; invoices?: boolean; statements?: boolean; portal?: boolean; publicShow?: boolean; publicEdit?: boolean };
  deleteData?: boolean;
}

interface OfferConfig {
  handle: string;
  name: string;
  description?: string;
  product: string | number;
  productPricePoint?: string | number;
  components?: { component: string | number; pricePoint?: string | number; startingQuantity: number }[];
  coupons?: (string | number)[];
}

const codes = Object.entries(config.getObject<Record<string, ReasonCodeConfig>>("reasonCodes") ?? {}).map(
  ([name, args]) => [name, new ReasonCode(name, args)] as const,
);
const fields = Object.entries(config.getObject<Record<string, CustomFieldConfig>>("customFields") ?? {}).map(
  ([name, args]) => [name, new CustomField(name, args)] as const,
);

const offerResources = Object.entries(config.getObject<Record<string, OfferConfig>>("offers") ?? {}).map(
  ([name, args]) => [name, new Offer(name, args)] as const,
);

export const reasonCodes = pulumi.output(Object.fromEntries(codes.map(([name, r]) => [name, { id: r.reasonCodeId, code: r.code }])));
export const customFields = pulumi.output(
  Object.fromEntries(fields.map(([name, f]) => [name, { id: f.customFieldId, name: f.name, dataCount: f.dataCount }])),
);
export const offers = pulumi.output(
  Object.fromEntries(offerResources.map(([name, o]) => [name, { id: o.offerId, handle: o.handle, signupPages: o.signupPages }])),
);
