"""The kit's one stylesheet (the apps, the hand trainer, the exercises and the lesson widgets), sent once
per view as an HTML widget: ``widgets.HTML(CSS)`` as the first child of a composite widget.

It lives below every view package (:mod:`dragonkit.teach`, :mod:`dragonkit.ui`, :mod:`dragonkit.lessons`),
so each of them can style its widgets without importing another.
"""

CSS = """<style>
.dk-app, .dk-lesson { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 13px; color: #222; }
.dk-app h2 { margin: 4px 0; }
.dk-status { font-size: 15px; padding: 4px 8px; background: #eef3fb; border-radius: 6px; margin-bottom: 4px; }
.dk-status.dk-over { background: #fff3c4; font-size: 16px; }
.dk-players { border-collapse: collapse; width: 330px; margin-right: 10px; }
.dk-players th, .dk-players td { padding: 1px 6px; line-height: 22px; border-bottom: 1px solid #ddd; text-align: left; }
.dk-players small { color: #777; }
.dk-player.dk-current { background: #eef3fb; }
.dk-gems { font-size: 15px; font-weight: bold; text-align: right !important; }
.dk-badge { display: inline-block; padding: 1px 6px; margin: 1px; border-radius: 8px; font-size: 11px;
            color: #fff; }
.dk-owner { background: #6c757d; } .dk-active { background: #5b7db1; }
.dk-offer-badge { background: #2f7d4a; } .dk-winner { background: #b8860b; }
.dk-log { width: 440px; border: 1px solid #ddd; border-radius: 6px; padding: 4px 8px; background: #fafafa; }
/* the event list shows 9 whole lines of 17px and scrolls line by line: no line is ever cut */
.dk-log-lines { height: 153px; overflow-y: auto; margin-top: 4px; scroll-snap-type: y mandatory; }
.dk-log ol { margin: 0; padding-left: 28px; font-size: 12px; line-height: 17px; }
.dk-log li { margin: 0; line-height: 17px; scroll-snap-align: start; }
.dk-ev-danger, .dk-ev-stopped { color: #b03a2e; } .dk-ev-game_over { font-weight: bold; }
.dk-ev-pot_collected, .dk-ev-bounty_paid { color: #7a5a00; } .dk-ev-turn_started { color: #777; }
.dk-coach { border: 1px solid #cdd; border-radius: 8px; padding: 4px 10px; background: #fbfdff; }
.dk-coach h3 { margin: 4px 0 6px 0; font-size: 15px; }
.dk-coach table { border-collapse: collapse; margin: 4px 0 8px 0; }
.dk-coach td, .dk-coach th { padding: 0 10px 0 0; text-align: left; line-height: 21px; }
.dk-frac { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-all; }
.dk-dec { color: #555; }
.dk-advice { font-weight: bold; color: #2f5c9e; font-size: 15px; }
.dk-best { margin: 2px 0 6px 0; }
.dk-values td { vertical-align: top; padding-bottom: 4px !important; }
.dk-values small { color: #666; }
.dk-offer { background: #eaf6ee; border-radius: 6px; padding: 4px 6px; margin: 4px 0; }
.dk-note { color: #777; font-size: 11px; margin: 4px 0; line-height: 14px; }
.dk-message { padding: 3px 8px; border-radius: 6px; margin: 2px 0; }
.dk-warning { background: #fff3cd; color: #7a5a00; } .dk-danger { background: #f8d7da; color: #842029; }
.dk-info { background: #e7f1ff; } .dk-success { background: #d1e7dd; color: #0f5132; }
.dk-exercise { border-left: 4px solid #5b7db1; padding: 2px 0 4px 10px; margin: 8px 0; }
.dk-question { font-size: 14px; margin: 2px 0 4px 0; }
.dk-hints { color: #555; margin: 2px 0; }
.dk-exercise .widget-radio-box { max-width: 760px; }
.dk-exercise .widget-radio-box label { white-space: normal; height: auto; line-height: 18px; margin: 2px 0; }
.dk-lesson h4 { margin: 6px 0 2px 0; font-size: 14px; }
.dk-lesson .dk-status { margin: 0 0 6px 0; }
.dk-table { border-collapse: collapse; margin: 4px 0 8px 0; font-size: 12px; }
.dk-table th { background: #eef3fb; text-align: left; padding: 2px 10px 2px 4px; vertical-align: bottom; }
.dk-table td { border-bottom: 1px solid #e2e2e2; padding: 1px 10px 1px 4px; line-height: 20px; vertical-align: top;
               max-width: 220px; }
.dk-table tr.dk-sum td { background: #f4f7fb; }
.dk-matrix { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
.dk-matrix th, .dk-matrix td { border: 1px solid #ddd; padding: 1px 6px; text-align: center; white-space: nowrap; }
.dk-matrix th { background: #f3f6fb; font-weight: normal; }
.dk-matrix td.dk-zero { color: #bbb; }
.dk-matrix tr.dk-row-on td, .dk-matrix tr.dk-row-on th { background: #fff3c4; }
.dk-caption { color: #444; margin: 2px 0 4px 0; }
.dk-read { background: #f7f9fc; border-radius: 6px; padding: 4px 10px; }
.dk-read ul { margin: 2px 0 2px 0; padding-left: 22px; }
.dk-read li { line-height: 20px; }
.dk-trainer .dk-card { display: inline-block; min-width: 64px; padding: 3px 8px; margin-right: 6px; border-radius: 6px;
                       color: #fff; font-weight: bold; text-align: center; }
.dk-trainer .dk-verdict { font-size: 14px; margin: 4px 0 6px 0; }
.dk-trainer .dk-verdict-values td:first-child { width: 220px; }
.dk-trainer .dk-deck td, .dk-trainer .dk-deck th { white-space: nowrap; font-size: 12px; padding-right: 9px; }
.dk-trainer .dk-deck td:nth-child(3) { white-space: normal; }
.dk-trainer .dk-recent td, .dk-trainer .dk-recent th { padding: 0 10px 0 0; line-height: 19px; font-size: 12px; }
.dk-trainer .dk-next { margin: 6px 0; line-height: 22px; }
</style>"""
