"""The read side: what one seat may see. The table as one player sees it, the narration of
what happened, the record read back and replayed, and the one door to a table's private
parts (`access`). Built only from the engine's view of a seat; nothing here changes a row."""
