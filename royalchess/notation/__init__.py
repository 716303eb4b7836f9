"""Text spellings: square names, UCI moves and SAN moves."""
