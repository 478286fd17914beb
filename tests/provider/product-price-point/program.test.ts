import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Product, ProductPricePoint } from "../../../provider";
import { annual } from "./site";

// A program's ProductPricePoint given its Product resource goes with it (deletedWith), the options given kept.
// (A file of its own: the mutation run leaves it out, see mutation/vitest.config.mts.)

describe("a program's ProductPricePoint given its Product resource", () => {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => ({ id: `${a.name}-id`, state: a.type.endsWith("Product") ? { ...a.inputs, productId: 42 } : a.inputs }),
        call: (a) => a.inputs,
      },
      "billing-app",
      "dev",
      true,
    );
  });

  it("goes with it (deletedWith), the options given kept", () => {
    const product = new Product("pro", {
      productFamily: "handle:plans",
      handle: "pro",
      name: "Pro",
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
    });
    const seen: pulumi.CustomResourceOptions[] = [];
    new ProductPricePoint(
      "pro-annual",
      { ...annual, product },
      {
        transformations: [
          (a) => {
            seen.push(a.opts as pulumi.CustomResourceOptions);
            return undefined;
          },
        ],
      },
    );
    expect(seen.map((o) => o.deletedWith === product)).toEqual([true]);
  });
});
