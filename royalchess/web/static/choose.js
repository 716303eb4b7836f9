// A small modal chooser: choose(title, [{value, label, image?, id?}]) resolves to the chosen
// value, or null when the player cancels.

export function choose(title, options) {
  const dialog = document.getElementById('dlg-choice');
  const box = document.getElementById('choice-options');
  document.getElementById('choice-title').textContent = title;
  box.innerHTML = '';
  return new Promise(resolve => {
    let done = false;
    const finish = value => {
      if (done) return;
      done = true;
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      resolve(value);
    };
    const onClose = () => finish(null);
    for (const option of options) {
      const button = document.createElement('button');
      button.type = 'button';
      if (option.id) button.dataset.choice = option.id;
      if (option.image) {
        const img = document.createElement('img');
        img.src = option.image;
        img.alt = '';
        button.appendChild(img);
      }
      const span = document.createElement('span');
      span.textContent = option.label;
      button.appendChild(span);
      button.addEventListener('click', () => finish(option.value));
      box.appendChild(button);
    }
    document.getElementById('choice-cancel').onclick = () => finish(null);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
  });
}
