import * as pulumi from "@pulumi/pulumi";
import { CustomField, ReasonCode } from "pulumi-subscription-billing";

// A site's configuration beside its catalog: the reason codes customers pick from when they cancel, and the custom
// fields of subscriptions and customers. Each is keyed in config by a name of your choosing (the resource's name),
// so a new code or a field's new name changes it in place rather than replacing it:
//   pulumi config set --path 'siteConfig:reasonCodes.pricey.code' too_expensive
//   pulumi config set --path 'siteConfig:reasonCodes.pricey.description' 'It costs too much'
//   pulumi config set --path 'siteConfig:customFields.region.resourceType' subscriptions
//   pulumi config set --path 'siteConfig:customFields.region.name' Region
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

const codes = Object.entries(config.getObject<Record<string, ReasonCodeConfig>>("reasonCodes") ?? {}).map(
  ([name, args]) => [name, new ReasonCode(name, args)] as const,
);
const fields = Object.entries(config.getObject<Record<string, CustomFieldConfig>>("customFields") ?? {}).map(
  ([name, args]) => [name, new CustomField(name, args)] as const,
);

export const reasonCodes = pulumi.output(Object.fromEntries(codes.map(([name, r]) => [name, { id: r.reasonCodeId, code: r.code }])));
export const customFields = pulumi.output(
  Object.fromEntries(fields.map(([name, f]) => [name, { id: f.customFieldId, name: f.name, dataCount: f.dataCount }])),
);
