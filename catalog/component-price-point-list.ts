import { toComponentPricePoint } from "../sdk/catalog/component-results";
import { allPages } from "../sdk/pages";
import type { ComponentPricePoint } from "../sdk/results";
import type { Transport } from "../sdk/transport";
import { componentPricePointListResponse, MAX_COMPONENT_PRICE_POINTS_PER_PAGE } from "../sdk/wire";

/**
 * Every price point of a component, archived ones too when asked. The SDK's
 * `listComponentPricePoints` never asks the service for archived ones (it only filters what comes
 * back), so an export with archived objects would miss them: this list sends `include_archived=true`,
 * the parameter the service takes for products' and components' lists, and otherwise reads as the SDK does.
 */
export async function listComponentPricePoints(
  t: Transport,
  componentId: number,
  includeArchived: boolean,
): Promise<ComponentPricePoint[]> {
  const rows = await allPages(
    MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
    async (page) =>
      (
        await t.call(
          {
            method: "GET",
            path: `/components/${componentId}/price_points.json`,
            repeatable: true,
            query: { page, per_page: MAX_COMPONENT_PRICE_POINTS_PER_PAGE, include_archived: includeArchived ? "true" : undefined },
          },
          componentPricePointListResponse,
        )
      ).price_points,
  );
  return rows.map(toComponentPricePoint).filter((p) => includeArchived || p.archivedAt === undefined);
}
