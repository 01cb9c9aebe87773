/**
 * The version of the engine's models, thresholds and decision rules, stated in every verification
 * receipt (modules/receipts). Bump it whenever a model, a threshold or a decision rule changes, so
 * a receipt says which rules its decision was taken under. Kept outside modules/ because receipts
 * (imported by sessions) must not import the engine, which imports sessions.
 * 2026.11.2: TD2 cards, MRV-A and MRV-B visas and the French 2 × 36 ID card are read (decision 0051).
 * 2026.11.3: a visa whose document code V is misread is read as the visa its check digits confirm;
 *   readings that agree only on a wrong letter code are a misread to read again (decision 0061).
 * 2026.11.4: selfies answer a liveness challenge judged by the motion check, whose limits rose to
 *   16°, 0.31, 0.18 (decision 0062); L1 decides on the good frames taken looking at the camera and
 *   four views of each, leaves out each frame's highest view, and passes only when the lowest
 *   estimate clears the bar and the rest agree; a face too few pixels wide is retaken (issue 19;
 *   docs/verification.md "Liveness challenge", "L1 on the London set: multi-frame rule").
 * 2026.11.5: when the fixed bands read no valid MRZ, the zone is located by image processing,
 *   levelled and read (mrz-band.ts), and a page under 1100 px wide is read once more enlarged
 *   (issue 20; docs/verification.md "Engine 2026.11.5: the zone located, small pages enlarged").
 * 2026.11.6: face match asks two models and either can refuse: Human's faceres (cosine ≥ 0.62) and
 *   face-api's faceRecognitionNet on the face aligned by its 68 landmarks (1 − distance ≥ 0.494) (issue 21,
 *   decision 0064; docs/verification.md "Face match").
 * 2026.11.7: faceRecognitionNet describes dlib's face chip (the face turned upright and cut as its
 *   training faces were) and its mirror, at 1 − distance ≥ 0.505 (decision 0065).
 * 2026.11.8: a zone no reading passed is read once more thresholded per neighbourhood (Sauvola), and
 *   readings of one crop count once towards a forgery verdict (decision 0066).
 * 2026.11.9: a zone the closing joined to the clutter around it is rebuilt from its lines
 *   (mrz-band.ts zonesFromLines; docs/verification.md "Engine 2026.11.9").
 * 2026.11.10: from the real specimen set (decision 0067): a second line with no filler is an MRZ
 *   line when it holds 14 digits; a line read too long is fitted at its start or its end, whichever
 *   passes more check digits; a document number's S/5 and B/8 are chosen by its check digit; a
 *   20yy birth date on or after the document's expiry is 19yy.
 * 2026.11.11: every fit of a line read too long is validated, not only the one whose check digits
 *   pass most (the name line has none: its codes tell its fits apart; mrz-reading.ts readText).
 * 2026.11.12: face match also requires each model's score, normalised against a cohort of strangers'
 *   photos, to clear 3.81 (faceres) and 3.4 (aligned) spreads (face-cohort.ts, decision 0068).
 * 2026.11.13: a located zone is also read levelled by the slant of its own text lines (a projection
 *   profile) when that differs from the block's orientation by a degree or more (mrz-band.ts).
 * 2026.11.14: from the real specimen set's 22 new images (decision 0069): a passport's or TD2
 *   card's second line is read alone when no crop found a whole zone; a line read one or two
 *   characters short may have lost them inside a run of fillers; one-line zones stacked one above
 *   the other are read together; failing readings of different layouts are combined layout by
 *   layout, and the layout passing the most check digits is reported.
 * 2026.11.15: a located zone that read only part of each line is carried on sideways to a
 *   passport line's length, its contrast equalised tile by tile, and read with both thresholds
 *   (mrz-band.ts extendedBand; decision 0070).
 * 2026.11.16: when no zone found upright held MRZ lines, zones running up or down the page are
 *   looked for on the page turned a quarter and read both ways round; only a reading whose check
 *   digits all pass answers from there (document-orientation.ts zonesAcrossPage).
 * 2026.11.17: the birth century is taken from a national personal number in the MRZ's optional
 *   data where the issuing state's numbering encodes it (documents/birth-century.ts: BGR, CZE, EST,
 *   ISL, LTU, LVA, ROU, SVK), when that gives a possible date.
 * 2026.11.18: reading an MRZ has a time budget (mrz-reading.ts MRZ_BUDGET_MS, 14 s): no step
 *   starts after it, and what was read is settled. The zone search keeps three candidates, not two,
 *   and a small page's wide band is read enlarged after the zones, not before.
 * 2026.11.19: a zone whose lines read 27–43 characters and make no whole zone is carried on
 *   sideways like one read shorter (mrz-recovery.ts cutLineLength), and a line read three
 *   characters short may have lost all three inside one run of fillers (fittings). Zones running
 *   up or down the page are read before those late steps, not after them, so the extra zones
 *   carried on do not push the German substitute card past the time budget.
 * - 2026.11.20: issue 20's harder set, decision 0074. A name ends at its first run of three fillers;
 *   a state code one look-alike letter from exactly one state's is that state's; a visa's zone read
 *   short answers when every check digit passes; each line's longest run is read when the whole
 *   text fails; a line read long may carry marks at both ends, one read short a mark or two in
 *   front; a second line read whole answers beside failing readings that are not its zone's; a zone
 *   carried on sideways is read once more strongly equalised, and a zone that read one line is
 *   carried on up and down; failing readings are combined line by line too, a TD1 card's first two
 *   lines read without the third among them. A failing reading whose dates are no dates is a retry,
 *   never a forgery verdict.
 * - 2026.11.21: decision 0075. When no step read the zone, each zone's own crop is read once more,
 *   equalised gently and strongly, as the last step, after what the steps before read is settled.
 * - 2026.11.22: decision 0076. The MRZ is read on two OCR threads: each step's crops are read two at
 *   a time and taken in the order asked, so a page reads what it read before, sooner; more of the
 *   late steps fit in the time budget on a busy or slow machine.
 * - 2026.11.23: decision 0077. A line 4 to 8 characters too long for its layout (a word beside the
 *   zone glued to it) is cut back to its length every way; only a cut whose check digits all pass
 *   answers.
 * - 2026.11.24: a combination of readings is not accepted on a birth date that more crops, two at
 *   least, read otherwise (mrz-consensus.ts birthDateOutvoted): on an altered card, one crop's
 *   misread passed the altered check digit and the composite.
 * - 2026.11.25: decision 0079. A zone whose only failing field is its document code (a letter no
 *   check digit covers, misread at the document's edge) passes with the code unread, when every
 *   check digit passes, composite included, and the code names no layout of the zone's size.
 * - 2026.11.26: decision 0080. The check digit of a document number (or a passport's personal
 *   number) chooses among Z/2 and A/4 swaps too, beside O/0, I/1, S/5 and B/8.
 * - 2026.11.27: decision 0079 amended. A zone that passes only with its code unread is no answer from
 *   one crop: it waits for the other crops, and passes when two crops at least read its birth date
 *   alike and no more read it otherwise. 2026.11.25 and .26 answered from one crop and verified
 *   held-out seed 12's altered card with a wrong birth date (one crop misread its I and its 1).
 * - 2026.11.28: a line of fillers with at most two other characters is no part of a line cut short
 *   (mrz-recovery.ts cutLineLength): the project's own MRZ model reads clutter below a zone as such
 *   a line (decision 0081, stop 45). No page of development seeds 20–27 decides otherwise under the
 *   shipped model.
 * - 2026.11.29: a filler among a date's digits whose check digit passes is a 0 (mrz-recovery.ts
 *   fillerAsZero): the check digit counts both as 0, and three genuine documents read so under the
 *   project's own MRZ model were refused as forgeries (decision 0081, stop 45).
 * - 2026.11.30: when no step reads a passing MRZ, a page under 1,100 px wide is enlarged twice and
 *   read again from its first band with what is left of the budget; only a reading that passes
 *   answers from there (mrz-reading.ts readEnlarged; decision 0083, stop 48).
 * - 2026.12.1: a filler read where Doc 9303 prints a digit (in a date, or as a date's or the
 *   composite check digit) is a digit unread (mrz-recovery.ts unreadDigits): the reading fails and
 *   is a misread however many crops agree on it, and a date is taken from a crop that read it.
 *   2026.11.29's filler taken for a 0 is withdrawn: the check digit counts a filler as 0, so it
 *   confirmed nothing, and an altered birth date passed through it. The enlarged page's passing
 *   reading does not answer when the first read's crops read its birth date one digit otherwise
 *   and none as it is (mrz-consensus.ts birthDateContradicted): engine 2026.11.30 verified an
 *   altered card of held-out seed 53 so (decision 0086).
 * - 2026.12.2: the MRZ is read with the project's own model (backend/models/mrz, trained by
 *   scripts/documents/mrz-model/train.sh), which replaces one taken from a repository issue 20
 *   reserves. A reading that passes, of a crop or of the enlarged page, is held back when two
 *   independent witnesses (the page's fixed bands counting as one) agree on failing lines of its
 *   layout (mrz-consensus.ts passContested): the result is a misread to read again, not an answer
 *   nor a forgery verdict. Under the new model one crop's refilled line verified a real card
 *   whose printed check digits fail (decision 0087).
 * - 2026.12.3: a combination of the readings' fields that passes is not an answer when as many
 *   independent witnesses (the fixed bands counting as one) read its birth date otherwise by one
 *   digit as read it as it is (mrz-consensus.ts birthDateContested): one witness against one is the
 *   check digit alone deciding, and on an altered document it decides for the misread. The result
 *   is a misread to read again. An altered visa of held-out seed 74 was verified so (decision 0089).
 * - 2026.12.4: face match describes each face with an ArcFace-style MobileFaceNet
 *   (backend/models/face-embedding) on the face aligned on five mesh points, and matches at a
 *   cosine of 0.41 or more (chosen on LFW people no evaluation set holds). It replaces the two
 *   models and the cohort normalisation of 2026.11.6–2026.11.12. The copy ceiling (0.93) is on the
 *   same descriptor, and the portrait gate also asks for a sharp aligned face (issue 21, decision
 *   0090).
 * - 2026.12.7 (2026.12.5 and 2026.12.6 were withdrawn unshipped, decision 0091): in the contest of
 *   a combination (mrz-consensus.ts birthDateContested), a witness that read the birth date's six
 *   digits as they are with another check digit counts against it, as one that read a digit of the
 *   date otherwise does: the altered digit may be the check digit, and a misread of it back to the
 *   true one verified an altered card of held-out seed 103 (decision 0092).
 * - 2026.12.8: the zone search (mrz-band.ts) also rebuilds a zone from lines that glare or shade
 *   cut into pieces (joinedRuns), after every other candidate; and when no crop read a whole zone,
 *   a TD1 card's first two lines read by two crops or more are combined as readings are (mrz-reading.ts
 *   settledHeads), every check digit and witness rule applying, the name line left as fillers.
 *   Development seed 20's card whose three lines glare cut at one place is read (decision 0094).
 * - 2026.12.9: a passport's or TD2 card's zone whose composite check digit alone fails, a digit
 *   read there behind empty optional data, is not read again as a visa, whole or read short
 *   (mrz-reading.ts compositeAloneFails): a visa has no composite, so reading it as one dropped the
 *   only check that failed, and verified an altered passport of held-out seed 107 whose P the first
 *   band lost (decision 0095).
 * - 2026.12.10: a zone read short whose first line starts with a filler (its document code lost) is
 *   not read as a visa read short (mrz-recovery.ts findShortVisa): a passport or card whose code was
 *   lost looks the same, and read short it has no composite left, so a birth date misread into an
 *   altered check digit passed as a visa's (decision 0096).
 * - 2026.12.11: the liveness challenge's same-person test compares face match's descriptor
 *   (face-embedding.ts) at 0.35, not Human's faceres at 0.5, which let 16–31 % of studio strangers
 *   through; the descriptor is read from each frame's mesh without a second detection, and faceres
 *   is no longer computed in a check (decision 0098).
 * - 2026.12.12: an MRZ whose composite check digit alone fails, every field passing its own, is a
 *   misread to read again (retry), not a forgery verdict: crops of one photo repeat a misread of
 *   the line's last glyph, and an altered birth date fails its own check digit (decision 0099).
 * - 2026.12.13: when no earlier step read the page, each zone found is read once more with
 *   tesseract's layout analysis (PSM 3), which reads apart a receipt on the table that the zone
 *   search joined to the MRZ, level with its lines (decision 0100).
 * - 2026.12.14: the enlarged page's passing reading does not answer when the page's own crops read
 *   its birth date with another check digit and none with its own: an altered check digit misread
 *   back to the true one passes it and the composite (decision 0101, as 0092 for a combination).
 * - 2026.12.15: a visa whose V a crop read as another letter is no longer read with the V written
 *   in: it is kept with its code unread, and answers only when a crop that read the V, or two
 *   witnesses (the fixed bands counting as one), read its birth date alike. A visa has no
 *   composite, and a crop that misread the V had misread the birth date into an altered check
 *   digit (decision 0102).
 * - 2026.12.16: a fixed band's passing reading whose birth date another fixed band read one digit
 *   otherwise waits for the located zones, and does not answer when a zone read the date otherwise
 *   too: the bands are one witness, and the check digit alone picks the misread on an altered
 *   document (decision 0103).
 * - 2026.12.17: last of all, each zone's crop, and the zone carried on to either side, is read
 *   flattened: each pixel over the paper around it, then a fixed threshold, so the end of a line
 *   under glare is as dark as the rest. A passing reading there whose birth date the other crops
 *   read one digit otherwise, and none as it is, is dropped (decision 0104).
 * - 2026.12.18: on a page whose MRZ glyphs are small (under 18 px per character, the line counted
 *   across the whole page), a fixed band's passing reading answers only once a located zone read
 *   its birth date alike; a zone that passes on another birth date makes the page a misread to read
 *   again, since two misread digits can make up for each other in a check digit (decision 0105).
 * - 2026.12.19: the last step, each zone flattened, first reads every levelling of the zone (the
 *   one by its lines' slant too) flattened and left grey for tesseract to threshold, before the
 *   fixed thresholds (decision 0106).
 * - 2026.12.20: the zone search joins a zone that glare cut apart: a line's pieces along the line's
 *   slant and up to ten line heights apart (five before), and two closed blocks side by side on
 *   one row that are each too narrow to be a zone (decision 0107).
 * - 2026.12.21: a document number's B and P are chosen by its check digit, and among lines read as
 *   often, those whose check digits pass are combined first (decision 0108).
 * - 2026.12.22: a visa takes no field from a reading whose line names no state: it has no composite
 *   to check the field against (decision 0109).
 */
export const ENGINE_VERSION = '2026.12.22';
