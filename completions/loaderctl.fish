# fish completion for loaderctl. Installed as
# /usr/share/fish/vendor_completions.d/loaderctl.fish. Loader names and their parameter keys
# come from `loaderctl list`.

set -l verbs start stop progress message status ping brightness version render preview list help

function __loaderctl_keys
    set -l tokens (commandline -opc)
    set -l name $tokens[-1]
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = start
            set name $tokens[(math $i + 1)]
            break
        end
    end
    loaderctl list 2>/dev/null | awk -v name=$name '/^[^ ]/ { inside = ($1 == name); next } inside && NF { print $1 "=" }'
end

complete -c loaderctl -f
complete -c loaderctl -l socket -r -F -d 'The daemon control socket'
complete -c loaderctl -l timeout -x -d 'Seconds to wait for the daemon'
complete -c loaderctl -s q -l quiet -d 'Print nothing on success'
complete -c loaderctl -l version -n "not __fish_seen_subcommand_from $verbs" -d 'Show the version'
complete -c loaderctl -s h -l help -d 'Show help'

complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a start -d 'Start a loader'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a stop -d 'End the loader'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a progress -d 'Set determinate progress'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a message -d 'Show a line of text'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a status -d 'What the daemon is doing'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a ping -d 'Check that the daemon answers'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a brightness -d 'Set the display brightness'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a version -d 'The daemon version'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a render -d 'Render a loader to a file'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a preview -d 'Animate a loader here'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a list -d 'List the loaders'
complete -c loaderctl -n "not __fish_seen_subcommand_from $verbs" -a help -d 'Help of a verb'

# Loader names after start, render and preview; parameter keys after start NAME.
complete -c loaderctl -n "__fish_seen_subcommand_from start render preview; and test (count (commandline -opc)) -le 2" -a '(loaderctl list --names 2>/dev/null)'
complete -c loaderctl -n "__fish_seen_subcommand_from start render preview; and not __fish_seen_subcommand_from (loaderctl list --names 2>/dev/null)" -a '(loaderctl list --names 2>/dev/null)'
complete -c loaderctl -n "__fish_seen_subcommand_from start; and __fish_seen_subcommand_from (loaderctl list --names 2>/dev/null)" -a '(__loaderctl_keys)'

complete -c loaderctl -n "__fish_seen_subcommand_from stop" -a 'success failure now'
complete -c loaderctl -n "__fish_seen_subcommand_from stop" -l wait -d 'Return once the splash has finished drawing'
complete -c loaderctl -n "__fish_seen_subcommand_from stop" -l wait-timeout -x -d 'Give up waiting after this long'
complete -c loaderctl -n "__fish_seen_subcommand_from progress" -l force -d 'Allow a lower value'
complete -c loaderctl -n "__fish_seen_subcommand_from status" -l json -d 'The daemon JSON verbatim'
complete -c loaderctl -n "__fish_seen_subcommand_from list" -l names -d 'Only the names'
complete -c loaderctl -n "__fish_seen_subcommand_from list" -l daemon -d 'Ask the running daemon'
complete -c loaderctl -n "__fish_seen_subcommand_from list" -l json -d 'One line of JSON'
complete -c loaderctl -n "__fish_seen_subcommand_from help" -a "$verbs"

set -l drawing "__fish_seen_subcommand_from render preview"
complete -c loaderctl -n $drawing -l size -x -d 'Canvas size WxH'
complete -c loaderctl -n $drawing -l progress -x -d 'Determinate progress'
complete -c loaderctl -n $drawing -l message -x -d 'A message line'
complete -c loaderctl -n $drawing -l set -x -d 'A loader parameter key=value'
complete -c loaderctl -n $drawing -l background -x -d 'Background colour'
complete -c loaderctl -n $drawing -l margin -x -d 'Empty pixels around everything'
complete -c loaderctl -n $drawing -l mono -d 'Draw the lit/unlit designs of on/off LEDs'
complete -c loaderctl -n $drawing -l message-style -x -a 'plain grok chatgpt calm' -d 'Style of the message line'
complete -c loaderctl -n $drawing -l stop-at -x -d 'Stop the loader at this time'
complete -c loaderctl -n $drawing -l outcome -x -a 'success failure' -d 'Outcome after --stop-at'
complete -c loaderctl -n $drawing -l fps -x -d 'Frames per second'
complete -c loaderctl -n $drawing -l duration -x -d 'Length in seconds'
complete -c loaderctl -n "__fish_seen_subcommand_from render" -l at -x -d 'Time of the first frame'
complete -c loaderctl -n "__fish_seen_subcommand_from render" -l zoom -x -d 'Enlarge every pixel'
complete -c loaderctl -n "__fish_seen_subcommand_from render" -s o -l output -r -F -d 'Output file (.ppm, .png, .gif)'
