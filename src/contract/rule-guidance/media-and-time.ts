import type { RuleGuidance } from './types.js';

/** Audio, video, moving content and time limits (WCAG 1.2, 1.4.2, 2.2). */
export const mediaAndTimeGuidance: readonly RuleGuidance[] = [
  {
    keys: ['eac66b', 'ibm:caption_track_exists'],
    title: 'Video has no captions',
    what: 'A <video> with sound has no captions track (<track kind="captions">), so its speech and important sounds are not available as text.',
    who: 'Deaf and hard-of-hearing people; people in noisy places or with the sound off; people who understand written language better than spoken.',
    fix: [
      'Write captions for all speech and meaningful sounds (a WebVTT file), and check automatic captions by hand.',
      'Add them with a <track kind="captions"> element, or burn them into the video (open captions).',
    ],
    example:
      '<video controls src="intro.mp4">\n  <track kind="captions" src="intro.en.vtt" srclang="en" label="English">\n</video>',
  },
  {
    keys: ['2eb176', 'afb423', 'ibm:media_audio_transcribed'],
    title: 'Audio has no text alternative',
    what: 'An audio recording (a podcast, an interview) has no transcript or captions, so what is said is available only to people who can hear it.',
    who: 'Deaf and hard-of-hearing people, and deafblind people who read a transcript in braille.',
    fix: [
      'Publish a transcript of the speech and relevant sounds next to the player or linked from it.',
      'Name speakers in the transcript.',
    ],
    example:
      '<audio controls src="episode-12.mp3"></audio>\n<p><a href="episode-12-transcript.html">Transcript of episode 12</a></p>',
  },
  {
    keys: ['ibm:media_track_available'],
    title: 'Video has no audio description',
    what: 'A pre-recorded video shows information only visually (on-screen text, actions) and offers no audio description or text alternative for it.',
    who: 'Blind and low-vision people, who hear the soundtrack but miss what is only shown.',
    fix: [
      'Add an audio-described version, or a descriptions track (<track kind="descriptions">).',
      'Or write the visual information into the script so the narration says it, or provide a full text alternative.',
    ],
    example:
      '<video controls src="demo.mp4">\n  <track kind="descriptions" src="demo.desc.vtt" srclang="en">\n</video>',
  },
  {
    keys: ['ibm:media_live_captioned'],
    title: 'Live video may have no captions',
    what: 'A live stream with audio is shown without real-time captions.',
    who: 'Deaf and hard-of-hearing viewers cannot follow the event as it happens.',
    fix: [
      'Provide live captions (a CART captioner or a checked live captioning service) in the player.',
    ],
    example: '<p>Live captions are on: use the CC button in the player.</p>',
  },
  {
    keys: ['ibm:media_alt_exists'],
    title: 'Audio or video has no short description',
    what: 'The <audio> or <video> element has no name that says what it contains.',
    who: 'Screen reader users hear only "video" or "audio" and cannot decide whether to play it.',
    fix: [
      'Give the element an aria-label, or a visible heading or caption referenced by aria-labelledby.',
    ],
    example: '<video controls src="tour.mp4" aria-label="Tour of the new library"></video>',
  },
  {
    keys: ['link-media-no-alternative'],
    title: 'Link to audio or video without an alternative nearby',
    what: 'The link opens an audio or video file, and no transcript, captions or description is linked next to it.',
    who: 'Deaf and hard-of-hearing people need a transcript or captions; blind people need a description of what is only shown.',
    fix: [
      'Publish a transcript (audio) or captions and a transcript or audio description (video).',
      'Link the alternative right beside the recording.',
    ],
    example:
      '<a href="talk.mp4">Watch the talk (video, 12 min)</a> ·\n<a href="talk-transcript.html">Read the transcript</a>',
  },
  {
    keys: ['80f0bf', 'ibm:media_autostart_controllable'],
    title: 'Audio plays automatically and cannot be stopped',
    what: 'Sound starts on its own when the page loads, lasts more than 3 seconds, and the page gives no control to pause, stop or turn it down.',
    who: 'Screen reader users, whose speech is drowned out by the sound; people with attention or cognitive disabilities.',
    fix: [
      'Do not autoplay sound; let people press play.',
      'If it must start, keep it under 3 seconds, or show visible controls to pause and set the volume at the start of the page.',
    ],
    example: '<video controls muted autoplay src="hero.mp4"></video>',
  },
  {
    keys: ['ibm:media_keyboard_controllable'],
    title: 'Media player controls may not work with the keyboard',
    what: 'The audio or video uses a custom player whose controls may not be reachable or operable with the keyboard.',
    who: 'Keyboard users, switch users and screen reader users cannot play, pause or adjust the media.',
    fix: [
      'Use the native controls attribute, or build each control as a <button> with a name.',
      'Test play, pause, volume and captions with Tab, Enter and Space.',
    ],
    example: '<video controls src="intro.mp4"></video>',
  },
  {
    keys: ['animated-image'],
    title: 'Animated image plays for more than 5 seconds',
    what: 'An animated image (GIF, APNG, WebP) moves for more than 5 seconds and the page offers no way to pause it.',
    who: 'People with attention disorders, who cannot focus on the text beside it; people with vestibular disorders or migraines triggered by motion.',
    fix: [
      'Make the animation stop within 5 seconds.',
      'Or show a still image with a button that plays the animation, and respect prefers-reduced-motion.',
    ],
    example:
      '<picture>\n  <source srcset="still.png" media="(prefers-reduced-motion: reduce)">\n  <img src="loop.gif" alt="Dough rising in a bowl">\n</picture>',
  },
  {
    keys: ['blink', 'blink-css'],
    title: 'Content blinks',
    what: 'Text or an element blinks (the <blink> element or text-decoration: blink / a CSS animation that flashes it) and cannot be paused.',
    who: 'People with attention or reading disabilities are distracted; people with low vision lose the text while it is off.',
    fix: [
      'Remove the blinking; use colour, weight or an icon to draw attention.',
      'If a short highlight is needed, stop it within 5 seconds.',
    ],
    example: '<p><strong class="notice">New:</strong> delivery on Saturdays.</p>',
  },
  {
    keys: ['marquee'],
    title: 'Text scrolls in a marquee',
    what: 'A <marquee> element moves text across the page with no way to pause it.',
    who: 'People with low vision or reading difficulties cannot read moving text; people with attention disorders are distracted by it.',
    fix: ['Replace the marquee with static text, or a carousel with a visible pause button.'],
    example: '<p class="announcement">Free delivery on orders over €50.</p>',
  },
  {
    keys: ['bc659a', 'bisz58'],
    title: 'Page refreshes or redirects on a timer',
    what: 'A <meta http-equiv="refresh"> reloads the page or sends people elsewhere after a delay, without warning and without a way to stop it.',
    who: 'Screen reader users, who lose their place when the page reloads; people who read slowly or need time to fill in a form.',
    fix: [
      'Redirect on the server (an HTTP 301 or 302) instead of a timed meta refresh.',
      'To update content, update it in place with a control to pause updates; never reload the whole page on a timer.',
    ],
    example: '<!-- Server: HTTP/1.1 301 Moved Permanently, Location: /new-page -->',
  },
  {
    keys: ['timing-adjustable'],
    title: 'Time limit may not be adjustable',
    what: 'The page sets a time limit (a session timeout, a timed form, a refresh) that people may not be able to turn off, adjust or extend.',
    who: 'People who read, type or move slowly: many people with motor, visual or cognitive disabilities, and screen reader users.',
    fix: [
      'Remove the time limit if it is not essential.',
      'Otherwise warn at least 20 seconds before it runs out and let people extend it with a simple action, at least ten times.',
    ],
    example:
      '<div role="alertdialog" aria-labelledby="t">\n  <h2 id="t">Your session ends in 2 minutes</h2>\n  <button>Stay signed in</button>\n</div>',
  },
];
