// [assets] the answer of the uploads of a custom node icon and of the favicon: where the file is served,
// its type and its size.
import * as v from "valibot";

export const StoredAsset = v.object({ url: v.string(), content_type: v.string(), size: v.number() });
