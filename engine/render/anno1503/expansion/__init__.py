"""The Pirates & Aristocrats parts of the Anno 1503 picture: the pirate sea
east of the main board (with the port and the passage), the expansion's
piles, the aristocrat island in each panel (``aristocrat``), damaged ships
and the battle in progress. ``hooks.ExpansionLook`` answers the renderer's
variant hooks (``variant.BaseLook``)."""
