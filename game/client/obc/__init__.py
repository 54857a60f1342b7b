"""The One Brain-Cell table kit (game.client.kits): hot_lz on Dinky Dau's baked table, man by man."""
