//! How the engine is weakened: settings, noise models, move choice, the UCI_Elo table.
