"""The table's side of the progressive link to the central meter (docs/progressive-link.md).

- :mod:`.outbound`: the messages the table sends (its declaration, the lock-out's
  contributions), built from the game's declared progressives, committed to the journal's
  outbox with the record that causes them;
- :mod:`.state`: what the table knows of the meter, only from the meter's topics (amounts, the
  ack, the verdict on its declaration, the last word) and whether progressive wagering is open;
- :mod:`.publisher`: the one task that sends the outbox in seq order and follows the meter's
  acknowledgement, and reads the meter's topics.
"""
